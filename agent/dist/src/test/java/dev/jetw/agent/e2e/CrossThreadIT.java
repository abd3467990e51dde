package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.HandoffApp;
import com.acme.app.HandoffScenarios;
import com.acme.app.HandoffWork;
import dev.jetw.etl.EventType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-thread links (docs/cross-thread.md) in a JVM the tool attaches to, over every hand-off kind:
 * each task's traced call is parented to a DEQUEUE on the task's thread whose parent is the submitting
 * call (on another thread), with the queue wait; a pool thread reused by tasks of different submitters
 * (and of none) parents each to its own; after detach the JDK classes run without jetw frames.
 */
class CrossThreadIT {

    static final String SCENARIOS = HandoffScenarios.class.getName();
    static final String WORK = HandoffWork.class.getName();
    static final int EXECUTOR = 1;
    static final int FORK_JOIN = 2;
    static final int SCHEDULED = 3;
    static final int THREAD_START = 4;

    @TempDir
    Path temp;

    @Test
    void tasksAreParentedToTheirSubmittersAcrossThreadsAndDetachRestoresTheJdk() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), HandoffApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            Path etl = temp.resolve("handoff.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + SCENARIOS + ";" + WORK, "backend=portable", "file=" + etl,
                    "jvm=none");
            assertEquals(0, attached.exit(), attached.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow

            int from = target.stdoutLineCount();
            target.send("run");
            target.awaitStdout(from, "ran"::equals, "ran");
            long delayedWait = number(target.awaitStdout(from, l -> l.startsWith("delayed-wait "), "delayed-wait"));
            boolean virtual = target.awaitStdout(from, l -> l.startsWith("virtual "), "virtual").equals("virtual ran");
            target.send("frames");
            assertTrue(number(target.awaitStdout(from, l -> l.startsWith("frames "), "frames")) > 0, "the wrapper runs while attached");

            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("cross-thread links:\\s+on, advice in [1-9]\\d* JDK classes")), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("internal errors:\\s+0")), status.toString());
            ChildJvm.Result detached = ChildJvm.tool("detach", pid);
            assertEquals(0, detached.exit(), detached.toString());
            assertTrue(!detached.stdout().contains("could not be restored"), detached.toString());

            // Detached: the JDK classes are as they were, a task's stack holds nothing of jetw, the app goes on.
            from = target.stdoutLineCount();
            target.send("frames");
            assertEquals("frames 0", target.awaitStdout(from, l -> l.startsWith("frames "), "frames after detach"));
            target.send("run");
            target.awaitStdout(from, "ran"::equals, "ran after detach");

            // propagate=false: the JDK classes are left alone, tasks are not linked, work is still traced.
            Path off = temp.resolve("propagate-off.etl");
            ChildJvm.Result again = ChildJvm.tool("attach", pid, "include=" + SCENARIOS + ";" + WORK, "backend=portable", "file=" + off,
                    "jvm=none", "propagate=false");
            assertEquals(0, again.exit(), again.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            from = target.stdoutLineCount();
            target.send("frames");
            assertEquals("frames 0", target.awaitStdout(from, l -> l.startsWith("frames "), "frames with propagate=false"));
            target.send("run");
            target.awaitStdout(from, "ran"::equals, "ran with propagate=false");
            ChildJvm.Result offStatus = ChildJvm.tool("status", pid);
            assertTrue(offStatus.stdout().lines().anyMatch(l -> l.matches("cross-thread links:\\s+off \\(propagate=false\\)")), offStatus.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            TraceFile offTrace = TraceFile.read(off);
            assertEquals(0, offTrace.calls.stream().filter(c -> c.type() == EventType.DEQUEUE).count(), "no DEQUEUE with propagate=false");
            assertEquals((virtual ? 15 : 14) + 1, offTrace.count(EventType.START, offTrace.methodId(WORK, "work")),
                    "work() still traced: every task and reuse-none");
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());

            TraceFile trace = TraceFile.read(etl);
            trace.assertBalancedAndNested();
            Links links = new Links(trace);
            long main = links.submitterThread("viaExecute");
            links.assertLinked("execute", "viaExecute", EXECUTOR);
            links.assertLinked("submit", "viaSubmit", EXECUTOR);
            links.assertLinked("invokeAll-1", "viaInvokeAll", EXECUTOR);
            links.assertLinked("invokeAll-2", "viaInvokeAll", EXECUTOR);
            links.assertLinked("fj-submit", "viaForkJoin", FORK_JOIN);
            links.assertLinked("fj-execute", "viaForkJoin", FORK_JOIN);
            links.assertLinked("cf-default", "viaCompletableDefault", -1);
            links.assertLinked("thread", "viaThread", THREAD_START);
            links.assertLinked("scheduled", "viaScheduled", SCHEDULED);
            links.assertLinked("delayed", "viaBusyPool", EXECUTOR);
            links.assertLinked("reuse-a", "reuseA", EXECUTOR);
            links.assertLinked("reuse-b", "reuseB", EXECUTOR);
            if (virtual) {
                links.assertLinked("virtual", "viaVirtualThread", THREAD_START);
            } else {
                System.out.println("CrossThreadIT: virtual threads skipped (JDK " + Runtime.version().feature() + " < 21)");
            }

            // The chain over two executors: stage 1 is linked to the caller; stage 2 was handed over by stage 1's
            // thread while stage 1's task ran, so its DEQUEUE's parent is stage 1's DEQUEUE.
            TraceFile.Call cf1 = links.dequeueOf("cf-1");
            assertEquals("viaCompletableChain", links.methodOf(cf1.parentInstanceId()));
            TraceFile.Call cf2 = links.dequeueOf("cf-2");
            assertEquals(cf1.instanceId(), cf2.parentInstanceId(), "stage 2 handed over inside stage 1's task");
            assertNotEquals(cf1.threadId(), cf2.threadId(), "two executors");

            // The forced delay: the task waited at least FORCED_DELAY behind the blocker, and the DEQUEUE says
            // what the task measured itself (within 5 ms: the two clock reads are microseconds apart).
            long dequeued = links.waitOf("delayed");
            assertTrue(dequeued >= 100_000_000L, "forced delay of 100 ms, DEQUEUE says " + dequeued);
            assertTrue(Math.abs(delayedWait - dequeued) <= 5_000_000L, "task measured " + delayedWait + " ns, DEQUEUE " + dequeued);

            // One pool thread ran the blocker, 'delayed', reuse-a, reuse-b and reuse-none: each task has its own parent,
            // and the task from untraced code has none.
            long single = links.workCall("reuse-a").threadId();
            assertEquals(single, links.workCall("reuse-b").threadId());
            assertEquals(single, links.workCall("reuse-none").threadId());
            assertEquals(single, links.workCall("delayed").threadId());
            assertEquals(0, links.workCall("reuse-none").parentInstanceId(), "submitted outside traced calls: not linked");
            assertNotEquals(main, single);
            // Nothing but tasks is linked: every DEQUEUE but that of the 'frames' probe (whose task traces nothing)
            // encloses exactly one work() call.
            long tasks = links.dequeues.values().stream().filter(d -> !links.methodOf(d.parentInstanceId()).equals("jetwFramesInTask")).count();
            assertEquals(tasks, trace.calls.stream().filter(c -> c.type() == EventType.START && c.methodId() == links.work
                    && links.dequeues.containsKey(c.parentInstanceId())).count(), () -> "each DEQUEUE encloses one task: " + links.describeDequeues());
            assertEquals(virtual ? 15 : 14, tasks, () -> "tasks linked: " + links.describeDequeues());
        }
    }

    private static long number(String line) {
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }

    /** Navigates checkpoint -> work() START -> DEQUEUE -> submitter START. */
    static final class Links {
        final TraceFile trace;
        final int work;
        final Map<Integer, TraceFile.Call> starts;
        final Map<Integer, TraceFile.Call> dequeues;

        Links(TraceFile trace) {
            this.trace = trace;
            this.work = trace.methodId(WORK, "work");
            this.starts = trace.calls.stream().filter(c -> c.type() == EventType.START)
                    .collect(Collectors.toMap(TraceFile.Call::instanceId, Function.identity()));
            this.dequeues = trace.calls.stream().filter(c -> c.type() == EventType.DEQUEUE)
                    .collect(Collectors.toMap(TraceFile.Call::instanceId, Function.identity()));
        }

        TraceFile.Call workCall(String label) {
            List<TraceFile.Call> marks = trace.calls.stream().filter(c -> c.type() == EventType.CHECKPOINT && label.equals(c.text())).toList();
            assertEquals(1, marks.size(), "one checkpoint " + label + " (the run while attached)");
            TraceFile.Call start = starts.get(marks.get(0).instanceId());
            assertEquals(work, start.methodId(), label);
            return start;
        }

        TraceFile.Call dequeueOf(String label) {
            TraceFile.Call w = workCall(label);
            TraceFile.Call d = dequeues.get(w.parentInstanceId());
            assertTrue(d != null, label + ": work() is not parented to a DEQUEUE but to " + w.parentInstanceId());
            assertEquals(w.threadId(), d.threadId(), label + ": the DEQUEUE is written on the task's thread");
            return d;
        }

        String describeDequeues() {
            return dequeues.values().stream().map(d -> d.instanceId() + " on " + d.threadId() + " kind/wait " + d.text() + " from "
                    + methodOf(d.parentInstanceId()) + " encloses " + starts.values().stream().filter(s -> s.parentInstanceId() == d.instanceId())
                    .map(s -> trace.methodStarts.get(s.methodId()).methodName()).toList()).collect(Collectors.joining("\n", "\n", ""));
        }

        long waitOf(String label) {
            return Long.parseLong(dequeueOf(label).text().split(" ")[1]);
        }

        String methodOf(int instanceId) {
            TraceFile.Call s = starts.get(instanceId);
            return s == null ? "none (" + instanceId + ")" : trace.methodStarts.get(s.methodId()).methodName();
        }

        long submitterThread(String method) {
            return starts.values().stream().filter(c -> trace.methodStarts.get(c.methodId()).methodName().equals(method))
                    .findFirst().orElseThrow().threadId();
        }

        void assertLinked(String label, String submitter, int kind) {
            TraceFile.Call d = dequeueOf(label);
            assertEquals(submitter, methodOf(d.parentInstanceId()), label + ": parent of its DEQUEUE");
            TraceFile.Call s = starts.get(d.parentInstanceId());
            assertNotEquals(s.threadId(), d.threadId(), label + ": handed to another thread");
            if (kind > 0) {
                assertEquals(kind, Integer.parseInt(d.text().split(" ")[0]), label + ": kind");
            }
        }
    }
}
