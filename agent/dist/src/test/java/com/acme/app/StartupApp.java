package com.acme.app;

import dev.jetw.api.Traced;

/**
 * Start-up (issue 31): {@code plain} prints and exits; {@code traced} also calls a method only {@code @Traced}
 * selects, in a class loaded after main started; {@code handoff} hands a call to a pool thread (a cross-thread link).
 */
public final class StartupApp {

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "plain";
        int result = mode.equals("traced") ? Annotated.work(6) : mode.equals("handoff") ? handOff(6) : 0;
        System.out.println("startup " + result);
    }

    private static int handOff(int n) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            return pool.submit(() -> onPoolThread(n)).get();
        } finally {
            pool.shutdown();
        }
    }

    static int onPoolThread(int n) {
        return n * 7;
    }

    /** Selected by its annotation alone: no include rule names it. */
    public static final class Annotated {
        @Traced
        static int work(int n) {
            return n * 7;
        }
    }
}
