package com.acme.app;

import dev.jetw.api.Jetw;

/** The traced body of every task in {@link HandoffScenarios}: a checkpoint names the task. */
public final class HandoffWork {

    private HandoffWork() {
    }

    public static String work(String label) {
        Jetw.checkpoint(label);
        return label;
    }
}
