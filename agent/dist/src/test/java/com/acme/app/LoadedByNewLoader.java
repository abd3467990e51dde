package com.acme.app;

/** Loaded only by RuntimeEventsApp's own class loader (a class-load event from a new loader). */
public final class LoadedByNewLoader {
}
