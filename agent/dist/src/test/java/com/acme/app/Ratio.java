package com.acme.app;

/**
 * A class with NaN constants in its constant pool, loaded before any attach: HotSpot re-appends such
 * entries at every redefinition, so it is what attach/detach cycles must not blow up (AttachCyclesIT).
 */
public final class Ratio {

    private Ratio() {
    }

    public static double of(double a, double b) {
        return b == 0 ? Double.NaN : a / b;
    }

    public static float of(float a, float b) {
        return b == 0 ? Float.NaN : a / b;
    }
}
