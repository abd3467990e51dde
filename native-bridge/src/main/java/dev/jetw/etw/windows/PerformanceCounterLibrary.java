package dev.jetw.etw.windows;

import com.sun.jna.Pointer;
import com.sun.jna.win32.StdCallLibrary;

/**
 * kernel32's QueryPerformanceCounter and QueryPerformanceFrequency (WINAPI, stdcall on 32-bit;
 * BOOL is {@code int}, the LARGE_INTEGER is written at the pointer) and GetSystemTimePreciseAsFileTime
 * (VOID, the FILETIME written at the pointer; Windows 8+). Interface-mapped: they run once per enable.
 * Off Windows the tests bind them from the gcc-built stub.
 */
interface PerformanceCounterLibrary extends StdCallLibrary {

    int QueryPerformanceCounter(Pointer counterOut);

    int QueryPerformanceFrequency(Pointer frequencyOut);

    void GetSystemTimePreciseAsFileTime(Pointer fileTimeOut);
}
