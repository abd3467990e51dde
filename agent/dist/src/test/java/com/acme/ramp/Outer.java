package com.acme.ramp;

/** The spinning thread's outermost frame: deep below the hot frames, a long call (the attach ramp's first tier). */
public final class Outer implements Runnable {

    @Override
    public void run() {
        Middle.a();
    }
}
