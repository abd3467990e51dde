package com.acme.app;

import dev.jetw.api.Traced;

/**
 * Start-up (issue 31): {@code plain} prints and exits; {@code traced} also calls a method only {@code @Traced}
 * selects, in a class loaded after main started.
 */
public final class StartupApp {

    public static void main(String[] args) {
        int result = args.length > 0 && args[0].equals("traced") ? Annotated.work(6) : 0;
        System.out.println("startup " + result);
    }

    /** Selected by its annotation alone: no include rule names it. */
    public static final class Annotated {
        @Traced
        static int work(int n) {
            return n * 7;
        }
    }
}
