package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.shapes.Shapes;
import java.lang.instrument.ClassFileTransformer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Byte Buddy's transformer comes up on an application thread, at the first class the direct path leaves to it, outside
 * the agent's own lock. A detach at that moment must either reset it or keep it from coming up: a transformer installed
 * after the detach's reset stayed registered for good, with the detached session's selection and method ids (review of
 * the direct path). The JVM is a stub whose registration of Byte Buddy's transformer waits until the detach has begun.
 */
class FallbackDuringDetachTest {

    /** Holds Byte Buddy's registration (not the direct path's) until released. */
    private static final class SlowRegistration extends DirectWeavingTransformerTest.StubInstrumentation {
        final CountDownLatch registering = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public synchronized void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
            if (!(transformer instanceof DirectWeavingTransformer)) {
                registering.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.addTransformer(transformer, canRetransform);
        }

        @Override
        public synchronized boolean removeTransformer(ClassFileTransformer transformer) {
            return super.removeTransformer(transformer);
        }

        synchronized int registered() {
            return transformers.size();
        }
    }

    @Test
    void aDetachDuringByteBuddysBringUpLeavesNoTransformerRegistered() throws Exception {
        SlowRegistration jvm = new SlowRegistration();
        Instrumenter instrumenter = new SessionlessInstrumenter(jvm, "include=" + Shapes.class.getPackage().getName() + ".**").instrumenter;
        instrumenter.installRoutingLoads(false);
        assertEquals(1, jvm.registered(), "the direct path's transformer");

        byte[] older = DirectWeavingTest.classFile(Shapes.Plain.class);
        older[7] = 50; // a Java 6 class file: left to Byte Buddy, whose transformer comes up for it
        Thread loading = new Thread(() -> {
            try {
                instrumenter.byteBuddyForTheRest.transform(Shapes.Plain.class.getClassLoader(),
                        Shapes.Plain.class.getName().replace('.', '/'), null, older);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "application thread loading a class");
        loading.start();
        assertTrue(jvm.registering.await(30, TimeUnit.SECONDS), "Byte Buddy's bring-up began");

        Thread detach = new Thread(instrumenter::reset, "detach");
        detach.start();
        // The detach either waits for the bring-up (blocked) or, as before the fix, runs through without seeing it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (detach.getState() != Thread.State.BLOCKED && detach.getState() != Thread.State.TERMINATED && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        jvm.release.countDown();
        loading.join(30_000);
        detach.join(30_000);

        assertEquals(0, jvm.registered(), "after the detach no transformer of the agent is left registered");
        instrumenter.byteBuddyForTheRest.transform(Shapes.Plain.class.getClassLoader(), Shapes.Plain.class.getName().replace('.', '/'), null, older);
        assertEquals(0, jvm.registered(), "and none comes up at a later class");
    }
}
