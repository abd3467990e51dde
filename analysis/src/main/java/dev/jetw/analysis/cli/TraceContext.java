package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import dev.jetw.analysis.kernel.KernelClass;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.analysis.kernel.KernelEvent;
import dev.jetw.analysis.kernel.KernelThreadNames;
import dev.jetw.analysis.kernel.StackKeys;
import dev.jetw.analysis.why.TracedThreads;

import java.io.IOException;

/**
 * What a first pass over a file collects before events are written out in a second one: names
 * (jetw's rundown is written after the first events, DC_END at the very end), the JVM runtime events
 * as spans (JFR delivers them seconds late, so they cannot be matched to calls on the fly), and the
 * time of the last record (where a call still running at stop is cut). Memory grows with the number of
 * methods, threads and runtime events (these are thresholded by the agent: jvmThreshold), not with
 * the number of calls. The threads with calls get their kernel ids ({@link TracedThreads}, by the file's
 * numbering) and kernel threads their names ({@link KernelThreadNames}), so that kernel events go under
 * the right thread and threads without calls are named. Cross-thread links ({@link CrossThreadLinks}) are resolved here too, with one
 * more pass when the file has hand-offs: their memory grows with the number of hand-offs. Stacks compressed
 * by key ({@link StackKeys}) keep their definitions here: memory grows with the distinct stacks.
 */
final class TraceContext {

    final JetwNames names = new JetwNames();
    final RuntimeSpans runtime = new RuntimeSpans();
    final CrossThreadLinks links = new CrossThreadLinks();
    /** The processes with jetw MethodCall events. */
    java.util.Set<Integer> callProcesses() {
        return new java.util.HashSet<>(callThreads.values());
    }

    /** The threads with jetw MethodCall events: header thread id to process id. */
    final java.util.Map<Integer, Integer> callThreads = new java.util.HashMap<>();
    /** The same threads with their kernel (OS) ids, resolved at the end of the pass. */
    final TracedThreads traced = new TracedThreads();
    /** Names and processes of kernel threads from the kernel's Thread records. */
    final KernelThreadNames kernelNames = new KernelThreadNames();
    final ThreadLabels labels = new ThreadLabels(names, kernelNames, traced);
    /** The frames of the stack keys the file defines (KeyDelete, KeyRundown), for the events that refer to them. */
    final StackKeys stackKeys = new StackKeys();
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
                    c.traced.add(r.processId(), r.threadId());
                } else if (e == null && KernelClass.of(r) == KernelClass.THREAD && r.type() != 36 && r.type() != 50) {
                    KernelEvent k = KernelDecoder.decode(r); // Thread Start/End/DCStart/DCEnd and SetName: names, processes
                    c.kernelNames.accept(k);
                } else if (e == null && KernelClass.of(r) == KernelClass.STACK_WALK && r.type() != 32) {
                    c.stackKeys.accept(KernelDecoder.decode(r)); // key definitions: frames for the references
                }
            }
        }
        c.traced.resolve(c.runtime.ids());
        if (!c.links.isEmpty()) {
            c.links.resolve(file, progress);
        }
        return c;
    }
}
