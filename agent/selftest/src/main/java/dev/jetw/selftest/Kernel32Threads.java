package dev.jetw.selftest;

import com.sun.jna.win32.StdCallLibrary;

/**
 * The one kernel32 call the scenario needs: WINAPI, so stdcall on 32-bit, as the backend's own kernel32
 * binding (PerformanceCounterLibrary) declares it; with no arguments the conventions agree anyway.
 */
public interface Kernel32Threads extends StdCallLibrary {

    /** The calling thread's id: what ETW puts in the ThreadId of the events the thread writes. */
    int GetCurrentThreadId();
}
