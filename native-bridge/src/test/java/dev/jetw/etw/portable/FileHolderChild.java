package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;

import java.nio.file.Paths;

/**
 * Child JVM of {@link OverwriteLockTest}: a session writing {@code args[0]}, dumped once to {@code args[1]}
 * (a dump must not release the file's lock), then idling with the session running until the test kills it.
 */
public final class FileHolderChild {

    private FileHolderChild() {
    }

    public static void main(String[] args) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = "holder-" + ProcessIds.current();
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(Paths.get(args[0])).bufferSizeKb(4).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 100; i++) {
            TestSupport.emit(p, s, 0, i, 16);
        }
        etw.dumpSession(name, Paths.get(args[1]));
        System.out.println("ready " + name);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
