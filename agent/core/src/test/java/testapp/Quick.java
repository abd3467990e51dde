package testapp;

/** Two nested calls per iteration, each far under any threshold, and no checkpoint. */
public class Quick {

    public long outer(int x) {
        return inner(x) + inner(x + 1);
    }

    long inner(int x) {
        return x * 31L;
    }
}
