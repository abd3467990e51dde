package testapp;

import dev.jetw.api.Traced;

/** Methods selected at different levels by rules and by @Traced. */
public class Levels {

    public int info() {
        return 1;
    }

    public int verbose() {
        return 2;
    }

    @Traced(level = 5)
    public int tracedVerbose() {
        return 3;
    }

    @Traced
    public int tracedDefault() {
        return 4;
    }

    public int all() {
        return info() + verbose() + tracedVerbose() + tracedDefault();
    }
}
