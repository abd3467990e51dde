package dev.jetw.etw.windows;

import com.sun.jna.Pointer;
import com.sun.jna.win32.StdCallLibrary;

/**
 * The one kernel32 function jetw needs: CloseHandle, for the process token that
 * {@link SystemProfilePrivilege} opens (BOOL; WINAPI is stdcall on 32-bit Windows).
 */
interface Kernel32Handles extends StdCallLibrary {

    int CloseHandle(Pointer handle);
}
