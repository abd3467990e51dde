package dev.jetw.agent.core;

import dev.jetw.bootstrap.Dispatcher;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Takes the advice out of methods the budget pushed out ({@link MethodRegistry#takeClassesToRetransform}):
 * their level is already 0, so they write nothing, but each call still enters the advice. Their
 * classes are retransformed (the transformer then leaves those methods alone) on the agent's own
 * thread "jetw-retransform", never on an application thread, in batches of at most
 * {@link #BATCH} classes with a pause between batches, so that the VM's work per second is bounded.
 */
final class BudgetRetransformer {

    static final int BATCH = 50;
    private static final long PAUSE_MILLIS = 100;

    private final Instrumentation inst;
    private final MethodRegistry registry;
    private volatile boolean closed;
    private Thread thread;

    BudgetRetransformer(Instrumentation inst, MethodRegistry registry) {
        this.inst = inst;
        this.registry = registry;
    }

    synchronized void start() {
        if (thread == null && inst.isRetransformClassesSupported()) {
            thread = new Thread(this::run, "jetw-retransform");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Stops the thread, waiting for a batch in progress (before the classes are reset at detach). */
    void close() {
        closed = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            Set<String> names = registry.takeClassesToRetransform();
            if (!names.isEmpty()) {
                retransform(loaded(names));
            }
        }
    }

    private List<Class<?>> loaded(Set<String> names) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (names.contains(c.getName()) && inst.isModifiableClass(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private void retransform(List<Class<?>> classes) {
        for (int i = 0; i < classes.size() && !closed; i += BATCH) {
            List<Class<?>> batch = classes.subList(i, Math.min(classes.size(), i + BATCH));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
            } catch (Throwable t) { // an unmodifiable or vanished class: its pushed-out methods stay silent
                Dispatcher.failed(t);
            }
            if (i + BATCH < classes.size()) {
                try {
                    Thread.sleep(PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
