package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;

import java.nio.file.Paths;

/**
 * Child JVM of {@link CrashSafetyTest}: starts a session (flush timer 1 s), writes the given number
 * of events and idles with the session running, until the test kills it with SIGKILL.
 */
public final class CrashChild {

    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = "crash-" + ProcessIds.current();
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(Paths.get(args[0]))
                .bufferSizeKb(4).flushTimerSeconds(1).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int n = Integer.parseInt(args[1]);
        for (int i = 0; i < n; i++) {
            TestSupport.emit(p, s, 0, i, 16);
        }
        System.out.println("written " + n);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
