package dev.jetw.agent.core;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.agent.core.control.ControlChannel;
import dev.jetw.agent.core.control.ControlClient;
import dev.jetw.etw.JetwThreads;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * -javaagent's premain opens the control channel on a thread of its own (10-30 ms of a fresh JVM's start,
 * BENCHMARKS.md §15): premain returns while the open is held back, the opener is one of jetw's threads, and the
 * channel answers once open.
 */
class PremainControlChannelTest {

    @TempDir
    Path dir;

    @AfterEach
    void detach() {
        AgentMain.beforeControlOpen = null;
        AgentMain.run("command=detach", AgentHarness.inst(), null);
    }

    @Test
    void premainReturnsWhileTheChannelIsStillOpeningOnItsOwnThread() throws Exception {
        assertNull(System.getProperty(ControlChannel.PROPERTY), "no channel in this test JVM before premain");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<Thread> opener = new AtomicReference<>();
        AgentMain.beforeControlOpen = () -> {
            opener.set(Thread.currentThread());
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread premain = new Thread(() -> AgentMain.premain("backend=portable,include=zzz.nothing.**,jvm=none,file="
                + dir.resolve("p.etl"), AgentHarness.inst()), "test-premain");
        premain.start();
        premain.join(20_000);
        try {
            assertTrue(!premain.isAlive(), "premain returned while the channel's open was held back");
            assertTrue(entered.await(20, TimeUnit.SECONDS), "the open runs on a thread of its own");
            assertNotNull(opener.get());
            assertTrue(opener.get() != premain && opener.get().isDaemon() && "jetw-control-open".equals(opener.get().getName()), opener.get().toString());
            assertTrue(JetwThreads.isJetw(opener.get().getId()), "the opener is registered as jetw's (its JVM events are left out)");
            assertNull(System.getProperty(ControlChannel.PROPERTY), "not open yet");
        } finally {
            release.countDown();
        }
        opener.get().join(20_000);
        String address = System.getProperty(ControlChannel.PROPERTY);
        assertNotNull(address, "open once released");
        String status = ControlClient.request(address, "status", "");
        assertTrue(status.startsWith("jetw agent status"), status);
    }
}
