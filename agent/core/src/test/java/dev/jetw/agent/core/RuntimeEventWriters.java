package dev.jetw.agent.core;

import dev.jetw.etw.ClassicProvider;
import java.util.Set;

/** Lets tests in other packages (the Windows recorder's) make a RuntimeEventWriter. */
public final class RuntimeEventWriters {

    private RuntimeEventWriters() {
    }

    public static RuntimeEventWriter create(ClassicProvider provider, Set<String> families) {
        return new RuntimeEventWriter(provider, families);
    }
}
