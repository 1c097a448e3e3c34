package org.bftws.bench;

/**
 * One measured point of a setup: {@code clients} concurrent client threads, each sending echo requests of
 * {@code size} XML elements without think time.
 */
record BenchPoint(int size, int clients) {
}
