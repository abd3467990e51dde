package com.acme.ramp;

/** The spinning thread's outermost frame: deep below the hot frames, a long call on a running stack (a hot class for the attach ramp). */
public final class Outer implements Runnable {

    @Override
    public void run() {
        Middle.a();
    }
}
