import Testing

/// The suites that decode and draw pictures: seconds of pure CPU in a debug build, most of
/// it in parameterised tests whose cases all start at once. In parallel they held both of
/// a two-core machine's cooperative threads for ~3 s at the start of `make test`, so other
/// tests' effects could not start, and a test waiting a second for one failed. Nested here
/// they run one test at a time, and the other thread stays free.
@Suite(.serialized) enum PictureSuites {}
