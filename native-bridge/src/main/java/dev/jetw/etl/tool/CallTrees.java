package dev.jetw.etl.tool;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;
import java.util.List;

/** One pass over a file: jetw's call trees per thread, and the names from its rundown. */
final class CallTrees {

    final List<ThreadCalls> threads;
    final JetwNames names;
    /** FILETIME of the last record in the file. */
    final long lastFileTime;
    /** The JVM runtime events (jvm= option) as spans. */
    final RuntimeSpans runtime;

    private CallTrees(List<ThreadCalls> threads, JetwNames names, long lastFileTime, RuntimeSpans runtime) {
        this.threads = threads;
        this.names = names;
        this.lastFileTime = lastFileTime;
        this.runtime = runtime;
    }

    static CallTrees read(EtlReader reader) throws IOException {
        JetwNames names = new JetwNames();
        CallTreeBuilder builder = new CallTreeBuilder();
        RuntimeSpans runtime = new RuntimeSpans();
        for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
            JetwEvent e = JetwEvent.decode(r);
            names.accept(r, e);
            builder.accept(r, e);
            runtime.accept(r, e);
        }
        return new CallTrees(builder.build(), names, builder.lastFileTime(), runtime);
    }
}
