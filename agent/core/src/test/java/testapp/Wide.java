package testapp;

/** Eighty methods in four classes, loaded when first called: many method ids to name while the session is overloaded. */
public final class Wide {

    private Wide() {
    }

    /** Twenty methods and a caller of all of them. */
    public static final class A {
        int m0(int x) { return x + 0; }
        int m1(int x) { return x + 1; }
        int m2(int x) { return x + 2; }
        int m3(int x) { return x + 3; }
        int m4(int x) { return x + 4; }
        int m5(int x) { return x + 5; }
        int m6(int x) { return x + 6; }
        int m7(int x) { return x + 7; }
        int m8(int x) { return x + 8; }
        int m9(int x) { return x + 9; }
        int m10(int x) { return x + 10; }
        int m11(int x) { return x + 11; }
        int m12(int x) { return x + 12; }
        int m13(int x) { return x + 13; }
        int m14(int x) { return x + 14; }
        int m15(int x) { return x + 15; }
        int m16(int x) { return x + 16; }
        int m17(int x) { return x + 17; }
        int m18(int x) { return x + 18; }
        int m19(int x) { return x + 19; }

        public int all(int x) {
            int s = 0;
            s += m0(x);
            s += m1(x);
            s += m2(x);
            s += m3(x);
            s += m4(x);
            s += m5(x);
            s += m6(x);
            s += m7(x);
            s += m8(x);
            s += m9(x);
            s += m10(x);
            s += m11(x);
            s += m12(x);
            s += m13(x);
            s += m14(x);
            s += m15(x);
            s += m16(x);
            s += m17(x);
            s += m18(x);
            s += m19(x);
            return s;
        }
    }

    /** Twenty methods and a caller of all of them. */
    public static final class B {
        int m0(int x) { return x + 0; }
        int m1(int x) { return x + 1; }
        int m2(int x) { return x + 2; }
        int m3(int x) { return x + 3; }
        int m4(int x) { return x + 4; }
        int m5(int x) { return x + 5; }
        int m6(int x) { return x + 6; }
        int m7(int x) { return x + 7; }
        int m8(int x) { return x + 8; }
        int m9(int x) { return x + 9; }
        int m10(int x) { return x + 10; }
        int m11(int x) { return x + 11; }
        int m12(int x) { return x + 12; }
        int m13(int x) { return x + 13; }
        int m14(int x) { return x + 14; }
        int m15(int x) { return x + 15; }
        int m16(int x) { return x + 16; }
        int m17(int x) { return x + 17; }
        int m18(int x) { return x + 18; }
        int m19(int x) { return x + 19; }

        public int all(int x) {
            int s = 0;
            s += m0(x);
            s += m1(x);
            s += m2(x);
            s += m3(x);
            s += m4(x);
            s += m5(x);
            s += m6(x);
            s += m7(x);
            s += m8(x);
            s += m9(x);
            s += m10(x);
            s += m11(x);
            s += m12(x);
            s += m13(x);
            s += m14(x);
            s += m15(x);
            s += m16(x);
            s += m17(x);
            s += m18(x);
            s += m19(x);
            return s;
        }
    }

    /** Twenty methods and a caller of all of them. */
    public static final class C {
        int m0(int x) { return x + 0; }
        int m1(int x) { return x + 1; }
        int m2(int x) { return x + 2; }
        int m3(int x) { return x + 3; }
        int m4(int x) { return x + 4; }
        int m5(int x) { return x + 5; }
        int m6(int x) { return x + 6; }
        int m7(int x) { return x + 7; }
        int m8(int x) { return x + 8; }
        int m9(int x) { return x + 9; }
        int m10(int x) { return x + 10; }
        int m11(int x) { return x + 11; }
        int m12(int x) { return x + 12; }
        int m13(int x) { return x + 13; }
        int m14(int x) { return x + 14; }
        int m15(int x) { return x + 15; }
        int m16(int x) { return x + 16; }
        int m17(int x) { return x + 17; }
        int m18(int x) { return x + 18; }
        int m19(int x) { return x + 19; }

        public int all(int x) {
            int s = 0;
            s += m0(x);
            s += m1(x);
            s += m2(x);
            s += m3(x);
            s += m4(x);
            s += m5(x);
            s += m6(x);
            s += m7(x);
            s += m8(x);
            s += m9(x);
            s += m10(x);
            s += m11(x);
            s += m12(x);
            s += m13(x);
            s += m14(x);
            s += m15(x);
            s += m16(x);
            s += m17(x);
            s += m18(x);
            s += m19(x);
            return s;
        }
    }

    /** Twenty methods and a caller of all of them. */
    public static final class D {
        int m0(int x) { return x + 0; }
        int m1(int x) { return x + 1; }
        int m2(int x) { return x + 2; }
        int m3(int x) { return x + 3; }
        int m4(int x) { return x + 4; }
        int m5(int x) { return x + 5; }
        int m6(int x) { return x + 6; }
        int m7(int x) { return x + 7; }
        int m8(int x) { return x + 8; }
        int m9(int x) { return x + 9; }
        int m10(int x) { return x + 10; }
        int m11(int x) { return x + 11; }
        int m12(int x) { return x + 12; }
        int m13(int x) { return x + 13; }
        int m14(int x) { return x + 14; }
        int m15(int x) { return x + 15; }
        int m16(int x) { return x + 16; }
        int m17(int x) { return x + 17; }
        int m18(int x) { return x + 18; }
        int m19(int x) { return x + 19; }

        public int all(int x) {
            int s = 0;
            s += m0(x);
            s += m1(x);
            s += m2(x);
            s += m3(x);
            s += m4(x);
            s += m5(x);
            s += m6(x);
            s += m7(x);
            s += m8(x);
            s += m9(x);
            s += m10(x);
            s += m11(x);
            s += m12(x);
            s += m13(x);
            s += m14(x);
            s += m15(x);
            s += m16(x);
            s += m17(x);
            s += m18(x);
            s += m19(x);
            return s;
        }
    }

    /** One round over the four classes, starting at class {@code first}: threads load them in different orders. */
    public static int round(int first, int x) {
        int s = 0;
        for (int i = 0; i < 4; i++) {
            switch ((first + i) % 4) {
                case 0: s += new A().all(x); break;
                case 1: s += new B().all(x); break;
                case 2: s += new C().all(x); break;
                case 3: s += new D().all(x); break;
                default: break;
            }
        }
        return s;
    }
}
