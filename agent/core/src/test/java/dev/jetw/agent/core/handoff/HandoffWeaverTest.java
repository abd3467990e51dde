package dev.jetw.agent.core.handoff;

import dev.jetw.bootstrap.Handoff;
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

    @Test
    void theJdksHandoffPointsGetTheCallsTheAdviceMade() throws IOException {
        Set<String> calls = new TreeSet<>();
        for (String className : HandoffPoint.classNames()) {
            byte[] woven = HandoffWeaver.weave(jdkClassFile(className));
            assertTrue(woven != null, className + " holds hand-off points");
            calls.addAll(handoffCalls(woven));
        }
        for (String advised : ADVISED) {
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
     * Woven into this JVM's own JDK classes, where the bootstrap classes are not the boot loader's: every woven call
     * throws (NoClassDefFoundError) or links nothing, and the executors behave exactly as before — the task, the
     * result, shutdownNow's own tasks, invokeAll's order — and reset restores them.
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
            java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
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
            assertSame(queued, left.get(0), "shutdownNow hands back the application's own task");

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

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
