package dev.jetw.etw.portable;

import dev.jetw.etw.ProcessId;

/** The process id ETW puts in every record ({@link ProcessId}), read once. */
final class ProcessIds {

    private static final int PID = (int) ProcessId.current();

    private ProcessIds() {
    }

    static int current() {
        return PID;
    }
}
