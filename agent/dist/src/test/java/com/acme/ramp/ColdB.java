package com.acme.ramp;

/** Loaded and called once before the attach, not running when it comes: rarely called. */
public final class ColdB {

    private ColdB() {
    }

    public static int run(int x) {
        return Integer.toString(x).length() + x; // a call: not a trivial method (trivial=)
    }
}
