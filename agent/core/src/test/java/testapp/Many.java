package testapp;

/** Five methods, for the maxMethods guard. */
public class Many {
    public int m1() { return 1; }
    public int m2() { return 2; }
    public int m3() { return 3; }
    public int m4() { return 4; }
    public int m5() { return 5; }

    public int all() {
        return m1() + m2() + m3() + m4() + m5();
    }
}
