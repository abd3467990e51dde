package com.acme.app;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;

/** Heap and Metaspace in use after full collections, for tests that look for memory kept per attach cycle. */
final class MemoryAfterGc {

    private MemoryAfterGc() {
    }

    static long heapUsed() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static long metaspaceUsed() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                return pool.getUsage().getUsed();
            }
        }
        return -1;
    }
}
