package dev.jetw.agent.core.handoff;

import dev.jetw.bootstrap.Handoff;
import dev.jetw.bootstrap.HandoffHandler;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.utility.OpenedClassReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HandoffWeaverTest {

    /** The points the Byte Buddy advice had (HandoffInstrumenter's matchers before the ASM weaver), bridges left out. */
    private static final List<String> ADVISED = Arrays.asList(
            "FutureTask.<init>(Ljava/lang/Runnable;Ljava/lang/Object;)V -> wrap(Ljava/lang/Runnable;I)",
            "FutureTask.<init>(Ljava/util/concurrent/Callable;)V -> wrap(Ljava/util/concurrent/Callable;I)",
            "ThreadPoolExecutor.execute(Ljava/lang/Runnable;)V -> wrapExecute(Ljava/util/concurrent/ThreadPoolExecutor;Ljava/lang/Runnable;)",
            "ThreadPoolExecutor.shutdownNow()Ljava/util/List; -> unwrapAll(Ljava/util/List;)",
            "ForkJoinPool.execute(Ljava/lang/Runnable;)V -> wrapForkJoin(Ljava/lang/Runnable;)",
            "ForkJoinPool.submit(Ljava/lang/Runnable;)Ljava/util/concurrent/ForkJoinTask; -> wrapForkJoin(Ljava/lang/Runnable;)",
            "ForkJoinPool.submit(Ljava/lang/Runnable;Ljava/lang/Object;)Ljava/util/concurrent/ForkJoinTask; -> wrapForkJoin(Ljava/lang/Runnable;)",
            "ForkJoinPool.submit(Ljava/util/concurrent/Callable;)Ljava/util/concurrent/ForkJoinTask; -> wrap(Ljava/util/concurrent/Callable;I)",
            "ForkJoinPool.invokeAll(Ljava/util/Collection;)Ljava/util/List; -> wrapAll(Ljava/util/Collection;)",
            "ScheduledThreadPoolExecutor.schedule(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; "
                    + "-> wrapScheduled(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)",
            "ScheduledThreadPoolExecutor.schedule(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; "
                    + "-> wrapScheduled(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)",
            "ScheduledThreadPoolExecutor.scheduleAtFixedRate(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; "
                    + "-> wrapScheduled(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)",
            "ScheduledThreadPoolExecutor.scheduleWithFixedDelay(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; "
                    + "-> wrapScheduled(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)",
            "CompletableFuture$ThreadPerTaskExecutor.execute(Ljava/lang/Runnable;)V -> wrap(Ljava/lang/Runnable;I)");

    /**
     * The points are the running JDK's: a class a JDK no longer has (CompletableFuture's ThreadPerTaskExecutor is gone
     * in 25, where its async tasks run on a ForkJoinPool) has none there, as the advice's matchers found none.
     */
    @Test
    void theJdksHandoffPointsGetTheCallsTheAdviceMade() throws IOException {
        Set<String> calls = new TreeSet<>();
        Set<String> present = new TreeSet<>();
        for (String className : HandoffPoint.classNames()) {
            byte[] original = jdkClassFileOrNull(className);
            if (original == null) {
                continue;
            }
            present.add(className.substring("java.util.concurrent.".length()));
            byte[] woven = HandoffWeaver.weave(original);
            assertTrue(woven != null, className + " holds hand-off points");
            calls.addAll(handoffCalls(woven));
        }
        assertTrue(present.containsAll(Arrays.asList("FutureTask", "ThreadPoolExecutor", "ForkJoinPool", "ScheduledThreadPoolExecutor")), present.toString());
        for (String advised : ADVISED) {
            if (!present.contains(advised.substring(0, advised.indexOf('.')))) {
                continue; // not a class of this JDK
            }
            assertTrue(calls.contains(advised), () -> advised + " missing from " + String.join("\n", calls));
        }
        for (String call : calls) {
            // The others are the javac bridges of submit, which the advice's matchers took too (they call the woven method).
            assertTrue(ADVISED.contains(call) || call.startsWith("ForkJoinPool.submit("), call);
        }
    }

    @Test
    void aClassWithoutHandoffPointsKeepsItsBytes() throws IOException {
        assertNull(HandoffWeaver.weave(jdkClassFile("java.util.concurrent.LinkedBlockingQueue")));
    }

    /**
     * Woven into this JVM's own JDK classes with no handler installed (or, if the bootstrap classes were not the boot
     * loader's, with every woven call throwing NoClassDefFoundError): the classes verify, the executors behave exactly
     * as before — the task, the result, shutdownNow's own tasks, invokeAll's order — and reset restores them.
     */
    @Test
    void wovenJdkClassesVerifyAndLetNoFailureEscapeAndResetRestoresThem() throws Exception {
        Instrumentation inst = ByteBuddyAgent.install();
        System.out.println("HandoffWeaverTest: bootstrap classes loaded by " + Handoff.class.getClassLoader()
                + " (the boot loader's JDK classes " + (Handoff.class.getClassLoader() == null ? "link nothing: no handler)" : "cannot see them)"));
        HandoffInstrumenter handoffs = new HandoffInstrumenter(inst, false);
        handoffs.install();
        try {
            assertTrue(handoffs.transformedClasses() >= 3, "FutureTask, ThreadPoolExecutor, ForkJoinPool are loaded: " + handoffs.transformedClasses());
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>());
            assertEquals("done", pool.submit(() -> "done").get());
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int n = i;
                tasks.add(() -> n);
            }
            List<Integer> results = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                results.add(f.get());
            }
            assertEquals(Arrays.asList(0, 1, 2, 3, 4), results);
            assertShutdownNowHandsBackTheQueuedTask(pool);

            ForkJoinPool fj = new ForkJoinPool(2);
            try {
                assertEquals("fj", fj.submit(() -> "fj").get());
                assertEquals(Integer.valueOf(3), fj.invokeAll(tasks).get(3).get());
                FutureTask<String> own = new FutureTask<>(() -> "own");
                fj.execute(own);
                assertEquals("own", own.get());
            } finally {
                fj.shutdown();
            }
            ScheduledThreadPoolExecutor scheduled = new ScheduledThreadPoolExecutor(1);
            try {
                assertEquals("later", scheduled.schedule(() -> "later", 1, TimeUnit.MILLISECONDS).get());
            } finally {
                scheduled.shutdown();
            }
        } finally {
            assertTrue(handoffs.reset(), "the JDK classes are restored");
        }
        assertEquals(0, handoffs.transformedClasses());
    }

    /**
     * With a handler installed, the woven JDK methods link what the advice linked, with its kind: submit (the
     * FutureTask), execute, ForkJoinPool's submit and invokeAll, schedule; shutdownNow hands back the application's own
     * tasks, not the wrappers; and a call that fails (invokeAll's copy, from a collection whose first iteration
     * throws) leaves the application's argument in place and lets nothing escape.
     */
    @Test
    void wovenJdkClassesLinkWhatTheAdviceLinkedAndAFailingCallLeavesTheTask() throws Exception {
        assumeTrue(Handoff.class.getClassLoader() == null, "the bootstrap classes are not on this JVM's boot class path: "
                + "the woven JDK classes cannot reach this Handoff");
        Instrumentation inst = ByteBuddyAgent.install();
        RecordingHandler handler = new RecordingHandler(Thread.currentThread());
        HandoffInstrumenter handoffs = new HandoffInstrumenter(inst, false);
        handoffs.install();
        Handoff.install(handler);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>());
        ForkJoinPool fj = new ForkJoinPool(2);
        ScheduledThreadPoolExecutor scheduled = new ScheduledThreadPoolExecutor(1);
        try {
            assertEquals("done", pool.submit(() -> "done").get());
            assertEquals(Arrays.asList(Handoff.EXECUTOR), handler.started(), "submit: the FutureTask's task");

            java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
            pool.execute(ran::countDown);
            ran.await();
            assertEquals(Arrays.asList(Handoff.EXECUTOR), handler.started(), "execute");

            assertEquals("fj", fj.submit(() -> "fj").get());
            assertEquals(Arrays.asList(Handoff.FORK_JOIN), handler.started(), "ForkJoinPool.submit(Callable)");

            List<Callable<Integer>> two = Arrays.asList(() -> 1, () -> 2);
            List<Future<Integer>> results = fj.invokeAll(two);
            assertEquals(Integer.valueOf(2), results.get(1).get());
            assertEquals(Arrays.asList(Handoff.FORK_JOIN, Handoff.FORK_JOIN), handler.started(), "ForkJoinPool.invokeAll: each task");

            List<Future<Integer>> unlinked = fj.invokeAll(new FirstIterationThrows<>(two));
            assertEquals(Integer.valueOf(1), unlinked.get(0).get(), "the application's collection, as it was");
            assertEquals(Arrays.asList(), handler.started(), "the failed copy linked nothing");

            assertEquals("later", scheduled.schedule(() -> "later", 1, TimeUnit.MILLISECONDS).get());
            assertEquals(Arrays.asList(Handoff.SCHEDULED), handler.started(), "schedule(Callable)");

            assertShutdownNowHandsBackTheQueuedTask(pool);
        } finally {
            Handoff.install(null);
            pool.shutdownNow();
            fj.shutdown();
            scheduled.shutdown();
            assertTrue(handoffs.reset(), "the JDK classes are restored");
        }
    }

    /** Links the test thread's hand-offs only (the JVM's own pools may hand off meanwhile) and records their kinds as they start. */
    private static final class RecordingHandler implements HandoffHandler {
        private final Thread submitter;
        private final Set<Long> links = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private final java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
        private final List<Integer> kinds = new java.util.concurrent.CopyOnWriteArrayList<>();

        RecordingHandler(Thread submitter) {
            this.submitter = submitter;
        }

        @Override
        public long link() {
            if (Thread.currentThread() != submitter) {
                return 0L;
            }
            long link = next.incrementAndGet();
            links.add(link);
            return link;
        }

        @Override
        public long taskStarting(long link, long dueNanos, int kind) {
            if (links.remove(link)) {
                kinds.add(kind);
            }
            return 0L;
        }

        @Override
        public void taskEnded(long token) {
        }

        /** The kinds of the tasks started since the last call; waits a little for a task still on its way. */
        List<Integer> started() throws InterruptedException {
            for (int i = 0; i < 200 && !links.isEmpty(); i++) {
                Thread.sleep(5);
            }
            List<Integer> started = new ArrayList<>(kinds);
            kinds.clear();
            return started;
        }
    }

    /** A collection whose first iteration throws (what a concurrent modification would), and later ones do not. */
    private static final class FirstIterationThrows<E> extends java.util.AbstractCollection<E> {
        private final Collection<E> elements;
        private boolean thrown;

        FirstIterationThrows(Collection<E> elements) {
            this.elements = elements;
        }

        @Override
        public java.util.Iterator<E> iterator() {
            if (!thrown) {
                thrown = true;
                throw new java.util.ConcurrentModificationException("first iteration");
            }
            return elements.iterator();
        }

        @Override
        public int size() {
            return elements.size();
        }
    }

    /** One task running, one queued behind it: shutdownNow returns the queued one as the application gave it (no wrapper). */
    private static void assertShutdownNowHandsBackTheQueuedTask(ThreadPoolExecutor pool) throws InterruptedException {
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            await(blocked);
        });
        running.await();
        Runnable queued = () -> { };
        pool.execute(queued);
        List<Runnable> left = pool.shutdownNow();
        blocked.countDown();
        assertEquals(1, left.size());
        assertSame(queued, left.get(0), "shutdownNow hands back the application's own task, not its wrapper");
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] jdkClassFileOrNull(String className) throws IOException {
        try (InputStream in = Object.class.getResourceAsStream("/" + className.replace('.', '/') + ".class")) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static byte[] jdkClassFile(String className) throws IOException {
        try (InputStream in = Object.class.getResourceAsStream("/" + className.replace('.', '/') + ".class")) {
            assertTrue(in != null, className);
            return in.readAllBytes();
        }
    }

    /** "Class.method(descriptor) -> Handoff.call(arguments)" for every call into Handoff. */
    private static Collection<String> handoffCalls(byte[] classFile) {
        List<String> calls = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(OpenedClassReader.ASM_API) {
            private String owner;

            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                owner = name.substring(name.lastIndexOf('/') + 1);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(OpenedClassReader.ASM_API) {
                    @Override
                    public void visitMethodInsn(int opcode, String callOwner, String callName, String callDescriptor, boolean itf) {
                        if (callOwner.equals(HandoffPoint.HANDOFF)) {
                            calls.add(owner + "." + name + descriptor + " -> " + callName
                                    + callDescriptor.substring(0, callDescriptor.indexOf(')') + 1));
                        }
                    }
                };
            }
        }, 0);
        return calls;
    }
}
