package dev.jetw.etw.portable.linux;

/**
 * The NTSTATUS Windows would report in FileIo_OpEnd for a file operation that failed on Linux with an errno
 * (x86-64 and arm64 numbers; asm-generic/errno-base.h and errno.h). The table is docs/linux-kernel-events.md's
 * "errno → NTSTATUS"; an errno it does not name becomes STATUS_UNSUCCESSFUL. A read that returned 0 bytes of a
 * non-empty request is STATUS_END_OF_FILE, as Windows completes a read at the end of a file.
 */
final class ErrnoStatus {

    static final int STATUS_SUCCESS = 0;
    static final int STATUS_UNSUCCESSFUL = 0xC0000001;
    static final int STATUS_ACCESS_VIOLATION = 0xC0000005;
    static final int STATUS_INVALID_HANDLE = 0xC0000008;
    static final int STATUS_INVALID_PARAMETER = 0xC000000D;
    static final int STATUS_END_OF_FILE = 0xC0000011;
    static final int STATUS_NO_MEMORY = 0xC0000017;
    static final int STATUS_ACCESS_DENIED = 0xC0000022;
    static final int STATUS_OBJECT_NAME_NOT_FOUND = 0xC0000034;
    static final int STATUS_OBJECT_NAME_COLLISION = 0xC0000035;
    static final int STATUS_SHARING_VIOLATION = 0xC0000043;
    static final int STATUS_QUOTA_EXCEEDED = 0xC0000044;
    static final int STATUS_DISK_FULL = 0xC000007F;
    static final int STATUS_MEDIA_WRITE_PROTECTED = 0xC00000A2;
    static final int STATUS_FILE_IS_A_DIRECTORY = 0xC00000BA;
    static final int STATUS_NOT_SUPPORTED = 0xC00000BB;
    static final int STATUS_CANT_WAIT = 0xC00000D8;
    static final int STATUS_NOT_A_DIRECTORY = 0xC0000103;
    static final int STATUS_NAME_TOO_LONG = 0xC0000106;
    static final int STATUS_TOO_MANY_OPENED_FILES = 0xC000011F;
    static final int STATUS_CANCELLED = 0xC0000120;
    static final int STATUS_IO_DEVICE_ERROR = 0xC0000185;
    static final int STATUS_FILE_TOO_LARGE = 0xC0000904;

    private ErrnoStatus() {
    }

    /** The NTSTATUS for a system call's return value {@code ret} (negative: -errno). */
    static int of(long ret) {
        return ret >= 0 ? STATUS_SUCCESS : ofErrno((int) -ret);
    }

    /** The NTSTATUS for {@code errno}. */
    static int ofErrno(int errno) {
        switch (errno) {
            case 1: // EPERM
            case 13: // EACCES
                return STATUS_ACCESS_DENIED;
            case 2: // ENOENT
                return STATUS_OBJECT_NAME_NOT_FOUND;
            case 4: // EINTR
                return STATUS_CANCELLED;
            case 5: // EIO
                return STATUS_IO_DEVICE_ERROR;
            case 9: // EBADF
                return STATUS_INVALID_HANDLE;
            case 11: // EAGAIN
                return STATUS_CANT_WAIT;
            case 12: // ENOMEM
                return STATUS_NO_MEMORY;
            case 14: // EFAULT
                return STATUS_ACCESS_VIOLATION;
            case 17: // EEXIST
                return STATUS_OBJECT_NAME_COLLISION;
            case 20: // ENOTDIR
                return STATUS_NOT_A_DIRECTORY;
            case 21: // EISDIR
                return STATUS_FILE_IS_A_DIRECTORY;
            case 22: // EINVAL
                return STATUS_INVALID_PARAMETER;
            case 23: // ENFILE
            case 24: // EMFILE
                return STATUS_TOO_MANY_OPENED_FILES;
            case 26: // ETXTBSY
                return STATUS_SHARING_VIOLATION;
            case 27: // EFBIG
                return STATUS_FILE_TOO_LARGE;
            case 28: // ENOSPC
                return STATUS_DISK_FULL;
            case 30: // EROFS
                return STATUS_MEDIA_WRITE_PROTECTED;
            case 36: // ENAMETOOLONG
                return STATUS_NAME_TOO_LONG;
            case 95: // EOPNOTSUPP
                return STATUS_NOT_SUPPORTED;
            case 122: // EDQUOT
                return STATUS_QUOTA_EXCEEDED;
            default:
                return STATUS_UNSUCCESSFUL;
        }
    }
}
