package com.acme.ramp;

/** The callers between {@link Outer} and the hot loop: the third and fourth innermost frames of a running thread, so hot too. */
final class Middle {

    private Middle() {
    }

    static void a() {
        b();
    }

    static void b() {
        Spinner.spin();
    }
}
