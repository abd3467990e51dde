package dev.jetw.etw.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.Win32Error;

/**
 * Enables SeSystemProfilePrivilege in the process token before a session with kernel=profile starts.
 * The sampled-profile kernel events need it enabled, and an elevated administrator's token holds it
 * disabled; PerfView's TraceEventSession enables it the same way (OpenProcessToken,
 * LookupPrivilegeValue, AdjustTokenPrivileges) before it turns the Profile flag on. A token that
 * does not hold it at all (not elevated) is refused here with one clear line, before StartTrace.
 */
final class SystemProfilePrivilege {

    static final String NAME = "SeSystemProfilePrivilege";
    static final int TOKEN_ADJUST_PRIVILEGES = 0x0020;
    static final int TOKEN_QUERY = 0x0008;
    static final int SE_PRIVILEGE_ENABLED = 0x00000002;
    /** TOKEN_PRIVILEGES with one LUID_AND_ATTRIBUTES: Count @0, Luid @4 (8 bytes), Attributes @12; 4-byte aligned on x86 and x64. */
    static final int TOKEN_PRIVILEGES_SIZE = 16;
    static final int TP_LUID = 4;
    static final int TP_ATTRIBUTES = 12;
    static final int LUID_SIZE = 8;
    /** GetCurrentProcess() is documented to return this constant pseudo handle, (HANDLE)-1: no call needed. */
    static final long CURRENT_PROCESS = -1L;

    private SystemProfilePrivilege() {
    }

    static boolean isNeeded(int kernelFlagBits) {
        return (kernelFlagBits & KernelFlag.PROFILE.bits()) != 0;
    }

    static void enable(NativeEtw etw, EtwLayout layout) throws EtwException {
        Memory tokenOut = new Memory(8);
        tokenOut.clear();
        if (etw.OpenProcessToken(new Pointer(CURRENT_PROCESS), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, tokenOut) == 0) {
            throw new EtwException("OpenProcessToken", etw.GetLastError(), "opening this process's token to enable "
                    + NAME + " for kernel=profile");
        }
        Pointer token = new Pointer(layout.pointerSize() == 8 ? tokenOut.getLong(0) : tokenOut.getInt(0) & 0xFFFFFFFFL);
        try {
            Memory luid = new Memory(LUID_SIZE);
            luid.clear();
            if (etw.LookupPrivilegeValueW(null, PropertiesBuffer.wideString(NAME), luid) == 0) {
                throw new EtwException("LookupPrivilegeValueW", etw.GetLastError(), NAME + " for kernel=profile");
            }
            Memory privileges = new Memory(TOKEN_PRIVILEGES_SIZE);
            privileges.clear();
            privileges.setInt(0, 1);
            privileges.write(TP_LUID, luid.getByteArray(0, LUID_SIZE), 0, LUID_SIZE);
            privileges.setInt(TP_ATTRIBUTES, SE_PRIVILEGE_ENABLED);
            int ok = etw.AdjustTokenPrivileges(token, 0, privileges, TOKEN_PRIVILEGES_SIZE, null, null);
            // Read at once: on success AdjustTokenPrivileges sets ERROR_SUCCESS or ERROR_NOT_ALL_ASSIGNED.
            int error = etw.GetLastError();
            if (ok == 0 || error == Win32Error.NOT_ALL_ASSIGNED) {
                throw new EtwException("AdjustTokenPrivileges", ok == 0 ? error : Win32Error.NOT_ALL_ASSIGNED,
                        "kernel=profile needs " + NAME + ", which this process's token does not hold: run elevated"
                                + " (as administrator) or drop profile from kernel=");
            }
        } finally {
            etw.CloseHandle(token);
        }
    }
}
