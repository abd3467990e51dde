package dev.jetw.selftest;

import java.util.ArrayList;
import java.util.List;

/** What one writing thread wrote: its thread id as ETW records it, and its events in writing order. */
final class WrittenThread {

    final String name;
    final int threadId;
    final List<ExpectedEvent> events = new ArrayList<>();
    /** Writes the backend refused (counted, never thrown, as ETW does). */
    int refused;

    WrittenThread(String name, int threadId) {
        this.name = name;
        this.threadId = threadId;
    }
}
