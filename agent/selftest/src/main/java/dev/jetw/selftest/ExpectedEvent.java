package dev.jetw.selftest;

import java.util.Arrays;

/** One event as the workload wrote it, for comparison with the record read back from the file. */
final class ExpectedEvent {

    final int type;
    final int level;
    final int instanceId;
    /** 0 when the event has no parent (ETW's value for "none"). */
    final int parentInstanceId;
    final byte[] payload;

    ExpectedEvent(int type, int level, int instanceId, int parentInstanceId, byte[] payload) {
        this.type = type;
        this.level = level;
        this.instanceId = instanceId;
        this.parentInstanceId = parentInstanceId;
        this.payload = payload;
    }

    boolean hasParent() {
        return parentInstanceId != 0;
    }

    @Override
    public String toString() {
        return "type " + type + " level " + level + " instance " + instanceId + " parent " + parentInstanceId
                + " payload " + Arrays.toString(payload);
    }
}
