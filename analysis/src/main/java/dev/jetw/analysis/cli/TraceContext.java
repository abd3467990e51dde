package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;

/**
 * What a first pass over a file collects before events are written out in a second one: names
 * (jetw's rundown is written after the first events, DC_END at the very end), the JVM runtime events
 * as spans (JFR delivers them seconds late, so they cannot be matched to calls on the fly), and the
 * time of the last record (where a call still running at stop is cut). Memory grows with the number of
 * methods, threads and runtime events (these are thresholded by the agent: jvmThreshold), not with
 * the number of calls. Cross-thread links ({@link CrossThreadLinks}) are resolved here too, with one
 * more pass when the file has hand-offs: their memory grows with the number of hand-offs.
 */
final class TraceContext {

    final JetwNames names = new JetwNames();
    final RuntimeSpans runtime = new RuntimeSpans();
    final CrossThreadLinks links = new CrossThreadLinks();
    /** The threads with jetw MethodCall events: header thread id to process id. */
    final java.util.Map<Integer, Integer> callThreads = new java.util.HashMap<>();
    /** FILETIME of the latest record of any kind. */
    long lastFileTime = Long.MIN_VALUE;

    static TraceContext read(java.nio.file.Path file, Progress progress) throws IOException {
        TraceContext c = new TraceContext();
        try (EtlReader pass = EtlReader.open(file)) {
            for (EtlRecord r = pass.next(); r != null; r = pass.next()) {
                progress.record(pass, 1, 2);
                JetwEvent e = JetwEvent.decode(r);
                c.names.accept(r, e);
                c.runtime.accept(r, e);
                c.links.accept(r, e);
                c.lastFileTime = Math.max(c.lastFileTime, r.fileTime());
                if (e != null && (e.kind == JetwEvent.Kind.CALL_START || e.kind == JetwEvent.Kind.CALL_END)) {
                    c.callThreads.putIfAbsent(r.threadId(), r.processId());
                }
            }
        }
        if (!c.links.isEmpty()) {
            c.links.resolve(file, progress);
        }
        return c;
    }
}
