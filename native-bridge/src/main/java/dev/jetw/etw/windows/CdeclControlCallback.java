package dev.jetw.etw.windows;

import com.sun.jna.Callback;
import com.sun.jna.Pointer;

/**
 * WMIDPREQUEST with the C calling convention, for hosts other than Windows only (the test stub).
 *
 * <p>{@link NativeEtw.ControlCallback} is a {@code StdCallCallback}, which is right for ETW (the
 * callback is WINAPI, stdcall on 32-bit Windows). JNA 5.19.1 off Windows refuses to build a
 * stdcall trampoline ("Invalid calling convention 63"), so there {@link JnaNativeEtw} hands JNA
 * this C-convention delegate instead. On Windows the ControlCallback itself goes to JNA.
 */
interface CdeclControlCallback extends Callback {

    int callback(int requestCode, Pointer requestContext, Pointer bufferSize, Pointer buffer);

    /** Forwards every call to the StdCall-typed callback the caller registered. */
    final class Delegate implements CdeclControlCallback {
        private final NativeEtw.ControlCallback target;

        Delegate(NativeEtw.ControlCallback target) {
            this.target = target;
        }

        @Override
        public int callback(int requestCode, Pointer requestContext, Pointer bufferSize, Pointer buffer) {
            return target.callback(requestCode, requestContext, bufferSize, buffer);
        }
    }
}
