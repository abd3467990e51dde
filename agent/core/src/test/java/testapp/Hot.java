package testapp;

import dev.jetw.api.Jetw;

/** A traced hot loop body: two nested calls and a checkpoint per iteration. */
public class Hot {

    public int outer(int x) {
        return inner(x) + inner(x + 1);
    }

    int inner(int x) {
        Jetw.checkpoint("hot");
        return x;
    }
}
