package dev.jetw.etw;

/**
 * Receives the provider's enable state from the control callback. Implementations copy the values
 * into fields and return: the callback may run on a native thread under the loader lock.
 */
public interface EnableListener {

    void onEnable(int level, int enableFlags, long loggerHandle);

    void onDisable();
}
