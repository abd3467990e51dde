package dev.jetw.etw.windows;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import com.sun.jna.win32.StdCallLibrary;

/**
 * The advapi32 ETW functions, one Java method per export, with the SDK parameter order.
 * ULONG is {@code int}; every 64-bit handle (CONTROLTRACE_ID, TRACELOGGER_HANDLE,
 * TRACEGUID_HANDLE) is {@code long}; HANDLE and every pointer is {@link Pointer}. Strings
 * (LPCWSTR) are Pointers to UTF-16LE bytes written by hand: JNA's wchar_t is 4 bytes on Linux.
 *
 * <p>{@link JnaNativeEtw} binds this to advapi32 (control calls interface-mapped, per-event calls
 * direct-mapped). Tests bind it to a recorder, and the JNA mapping itself to a gcc-built stub
 * library that exports the same names.
 */
public interface NativeEtw {

    int StartTraceW(Pointer traceIdOut, Pointer instanceName, Pointer properties);

    int ControlTraceW(long traceId, Pointer instanceName, Pointer properties, int controlCode);

    int QueryAllTracesW(Pointer propertyArray, int propertyArrayCount, Pointer loggerCountOut);

    int EnableTrace(int enable, int enableFlag, int enableLevel, Pointer controlGuid, long traceId);

    int EnableTraceEx2(long traceId, Pointer providerId, int controlCode, byte level, long matchAnyKeyword,
                       long matchAllKeyword, int timeout, Pointer enableParameters);

    int RegisterTraceGuidsW(ControlCallback requestAddress, Pointer requestContext, Pointer controlGuid,
                            int guidCount, Pointer traceGuidReg, Pointer mofImagePath, Pointer mofResourceName,
                            Pointer registrationHandleOut);

    int UnregisterTraceGuids(long registrationHandle);

    long GetTraceLoggerHandle(Pointer buffer);

    /** Declared with LastErrorException: JNA then zeroes the last error before the call, as the docs require. */
    byte GetTraceEnableLevel(long traceHandle) throws LastErrorException;

    int GetTraceEnableFlags(long traceHandle) throws LastErrorException;

    int TraceEvent(long traceHandle, Pointer eventTrace);

    int TraceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo);

    int CreateTraceInstanceId(Pointer regHandle, Pointer instInfo);

    // Token privileges, for kernel=profile (SystemProfilePrivilege). Each returns a BOOL; on FALSE the
    // reason is GetLastError. CloseHandle and GetLastError are kernel32's; the rest advapi32's.

    int OpenProcessToken(Pointer processHandle, int desiredAccess, Pointer tokenHandleOut);

    int LookupPrivilegeValueW(Pointer systemName, Pointer name, Pointer luidOut);

    int AdjustTokenPrivileges(Pointer tokenHandle, int disableAllPrivileges, Pointer newState, int bufferLength,
                              Pointer previousState, Pointer returnLengthOut);

    int CloseHandle(Pointer handle);

    /** The calling thread's last error as the previous call on this thread left it. */
    int GetLastError();

    /** WMIDPREQUEST: ETW's control callback (stdcall on x86). */
    /**
     * kernel32 QueryPerformanceCounter: nonzero (TRUE) on success, the counter in the LARGE_INTEGER
     * at {@code counterOut}. Read once per enable, to put caller-set time stamps on the QPC clock.
     */
    int QueryPerformanceCounter(Pointer counterOut);

    /** kernel32 QueryPerformanceFrequency: nonzero on success, counts per second at {@code frequencyOut}. */
    int QueryPerformanceFrequency(Pointer frequencyOut);

    /**
     * kernel32 GetSystemTimePreciseAsFileTime (Windows 8+): the system time as a FILETIME at
     * {@code fileTimeOut}, to the microsecond or better. Read once per enable, to put caller-set time
     * stamps on the system-time clock; where the export is missing JNA throws UnsatisfiedLinkError.
     */
    void GetSystemTimePreciseAsFileTime(Pointer fileTimeOut);

    interface ControlCallback extends StdCallLibrary.StdCallCallback {
        int callback(int requestCode, Pointer requestContext, Pointer bufferSize, Pointer buffer);
    }
}
