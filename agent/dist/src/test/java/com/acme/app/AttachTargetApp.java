package com.acme.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A long-running application the tests attach to. It does work only when told, so a test knows
 * exactly which calls happened while the agent was attached: stdin "work" runs Worker.compute once
 * and prints "done <result>"; "mem" prints "mem <heap used> <Metaspace used>" in bytes after a full GC;
 * "threads" prints "threads <name>|<name>|..." (the live threads); "exit" ends the JVM normally.
 */
public final class AttachTargetApp {

    public static void main(String[] args) throws Exception {
        // Loaded before any attach, so every attach retransforms it (see Ratio).
        if (!Double.isNaN(Ratio.of(1, 0)) || !Float.isNaN(Ratio.of(1f, 0f))) {
            throw new AssertionError("Ratio");
        }
        System.out.println("ready " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("work")) {
                System.out.println("done " + Worker.compute(10));
            } else if (line.equals("mem")) {
                System.out.println("mem " + MemoryAfterGc.heapUsed() + " " + MemoryAfterGc.metaspaceUsed());
            } else if (line.equals("threads")) {
                StringBuilder names = new StringBuilder("threads ");
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    names.append(t.getName()).append('|');
                }
                System.out.println(names);
            } else if (line.equals("exit")) {
                System.out.println("bye");
                return;
            }
        }
    }
}
