package testapp;

import dev.jetw.api.Jetw;

/** A small known call tree, with a checkpoint and an exception that is thrown and caught. */
public class Calls {

    public int run() {
        int s = middle(1);
        s += middle(2);
        s += safeFail();
        return s;
    }

    int middle(int x) {
        Jetw.checkpoint(x == 1 ? "in-middle-1" : "in-middle-2");
        return leaf(x) + leaf(x + 1);
    }

    int leaf(int x) {
        return x * 2;
    }

    int safeFail() {
        try {
            fail();
        } catch (IllegalStateException e) {
            return 100;
        }
        return 0;
    }

    void fail() {
        throw new IllegalStateException("boom");
    }
}
