package dev.jetw.agent.core.instrument;

/** A class the agent changed: its loader (by identity; null for the boot loader) and name, for the reset at detach. */
final class TransformedClass {
    private final ClassLoader loader;
    private final String name;

    TransformedClass(ClassLoader loader, String name) {
        this.loader = loader;
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransformedClass && ((TransformedClass) o).loader == loader && ((TransformedClass) o).name.equals(name);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(loader) * 31 + name.hashCode();
    }
}
