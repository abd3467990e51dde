package dev.jetw.selftest;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel thread facts from the raw fields of a real Windows kernel logger file
 * (shared/etl-samples/ShutdownPerfDiagLogger.etl, whose README counts 3,058 Thread-class records).
 */
class KernelThreadsTest {

    @Test
    void threadRecordsOfAWindowsKernelFileGiveThreadAndProcessIds() throws Exception {
        Path file = Paths.get(System.getProperty("jetw.samples.dir"), "ShutdownPerfDiagLogger.etl");
        KernelThreads k = KernelThreads.read(file);
        // Every Thread-class record of that file is a start/end/rundown (group 0x05, types 1-4).
        assertEquals(3058, k.threadRecords);
        assertEquals(0, k.cswitchRecords, "that file was recorded without the cswitch flag");
        assertTrue(k.processOfThread.size() > 100, "distinct threads: " + k.processOfThread.size());
        // Read from the right offsets, ids look like Windows ids: multiples of 4, the idle thread 0 in
        // the idle process 0, kernel threads in the System process 4.
        for (Map.Entry<Integer, Integer> e : k.processOfThread.entrySet()) {
            assertEquals(0, e.getKey() % 4, "thread id " + e.getKey());
            assertEquals(0, e.getValue() % 4, "process id " + e.getValue() + " of thread " + e.getKey());
        }
        assertEquals(Integer.valueOf(0), k.processOfThread.get(0));
        assertTrue(k.processOfThread.containsValue(4), "threads of the System process");
    }
}
