package com.acme.app;

/** Instrumented by a rule at level verbose; the session enables less, so its calls write nothing. */
public final class QuietWork {

    public static int quiet() {
        return 7;
    }
}
