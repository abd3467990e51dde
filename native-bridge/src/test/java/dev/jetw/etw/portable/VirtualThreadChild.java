package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;

import java.nio.file.Paths;

/**
 * Child JVM (Java 21+) of {@link VirtualThreadIdTest}: a virtual thread writes events around a
 * sleep (which unmounts it, so it may resume on another carrier); prints the virtual thread's id.
 * Virtual threads are reached by reflection: the tests compile for Java 17.
 */
public final class VirtualThreadChild {

    private VirtualThreadChild() {
    }

    public static void main(String[] args) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = "vthread-" + ProcessIds.current();
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(Paths.get(args[0])).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        long[] id = new long[1];
        Runnable work = () -> {
            id[0] = Thread.currentThread().getId();
            EventScratch s = p.newScratch();
            for (int i = 0; i < 20; i++) {
                TestSupport.emit(p, s, 0, i, 0);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        };
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Class<?> builderType = Class.forName("java.lang.Thread$Builder");
        Thread t = (Thread) builderType.getMethod("start", Runnable.class).invoke(builder, work);
        t.join();
        if (!(Boolean) Thread.class.getMethod("isVirtual").invoke(t)) {
            throw new AssertionError("not a virtual thread");
        }
        etw.stopSession(name);
        System.out.println("vthread " + id[0] + " main " + Thread.currentThread().getId());
    }
}
