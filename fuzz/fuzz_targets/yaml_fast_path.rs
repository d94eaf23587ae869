//! Differential target: wherever the frontmatter fast path (`frontmatter::fast_mapping`)
//! answers, serde_yaml must parse the same text to the same mapping. The fast path stays
//! only because the library path missed the CPU goal (BENCHMARKS.md); this holds it equal
//! to the library on arbitrary input.
#![no_main]

use auditbook::load::frontmatter::fast_mapping;
use libfuzzer_sys::fuzz_target;
use serde_yaml::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(yaml) = std::str::from_utf8(data) else {
        return;
    };
    let Some(fast) = fast_mapping(yaml) else {
        return;
    };
    let slow: Result<Value, _> = serde_yaml::from_str(yaml);
    match slow {
        Ok(v) => assert_eq!(v, Value::Mapping(fast), "input {yaml:?}"),
        Err(e) => panic!("the fast path read {yaml:?}, serde_yaml refused it: {e}"),
    }
});
