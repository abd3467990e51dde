package dev.jetw.etw.windows;

import com.sun.jna.Callback;
import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import com.sun.jna.win32.StdCallLibrary;

/**
 * The interface-mapped half of the binding: the session-control and registration calls, which run
 * a few times per session, so JNA's reflective proxy dispatch costs nothing that matters.
 *
 * <p>A {@link StdCallLibrary}, so JNA calls these with stdcall on 32-bit Windows (WMIAPI is
 * {@code __stdcall}); on x64 there is one convention and the marker is inert. No function mapper:
 * advapi32 exports the names undecorated ({@code StartTraceW}, not {@code _StartTraceW@12}), and
 * the W suffix is already part of each name, so JNA's W32APIFunctionMapper would only add probing.
 *
 * <p>Types follow the SDK exactly: ULONG is {@code int} (never NativeLong/WinDef.ULONG, 8 bytes on
 * Linux), every ULONG64 handle is {@code long} (8 bytes by value on x86 too), UCHAR is
 * {@code byte}, every pointer is {@link Pointer}. The per-event calls live in {@link Advapi32Direct}.
 */
interface Advapi32Library extends StdCallLibrary {

    int StartTraceW(Pointer traceIdOut, Pointer instanceName, Pointer properties);

    int ControlTraceW(long traceId, Pointer instanceName, Pointer properties, int controlCode);

    int QueryAllTracesW(Pointer propertyArray, int propertyArrayCount, Pointer loggerCountOut);

    int EnableTrace(int enable, int enableFlag, int enableLevel, Pointer controlGuid, long traceId);

    int EnableTraceEx2(long traceId, Pointer providerId, int controlCode, byte level, long matchAnyKeyword,
                       long matchAllKeyword, int timeout, Pointer enableParameters);

    /** requestAddress: a {@link NativeEtw.ControlCallback} on Windows, a {@link CdeclControlCallback} elsewhere. */
    int RegisterTraceGuidsW(Callback requestAddress, Pointer requestContext, Pointer controlGuid,
                            int guidCount, Pointer traceGuidReg, Pointer mofImagePath, Pointer mofResourceName,
                            Pointer registrationHandleOut);

    int UnregisterTraceGuids(long registrationHandle);

    long GetTraceLoggerHandle(Pointer buffer);

    /** {@code throws LastErrorException}: JNA zeroes the last error before the call (the documented contract). */
    byte GetTraceEnableLevel(long traceHandle) throws LastErrorException;

    int GetTraceEnableFlags(long traceHandle) throws LastErrorException;

    /** BOOL. Token calls for SystemProfilePrivilege; JNA keeps the last error for {@link com.sun.jna.Native#getLastError()}. */
    int OpenProcessToken(Pointer processHandle, int desiredAccess, Pointer tokenHandleOut);

    int LookupPrivilegeValueW(Pointer systemName, Pointer name, Pointer luidOut);

    int AdjustTokenPrivileges(Pointer tokenHandle, int disableAllPrivileges, Pointer newState, int bufferLength,
                              Pointer previousState, Pointer returnLengthOut);
}
