//! Axis tick spacing.

/// hp2ps's `Round`: brings `y` into one decade by repeated ×10 or ÷10, maps it to 1, 2
/// or 5 there, and scales back by the same steps (not `powi`, whose rounding differs).
/// Note that exactly 10 maps to 5. Returns `None` for 0, NaN or an infinity, where
/// hp2ps would loop forever.
pub fn round_125(mut y: f64) -> Option<f64> {
    if !y.is_finite() || y <= 0.0 {
        return None;
    }
    let one_two_five = |v: f64| {
        if v > 4.0 {
            5.0
        } else if v > 1.0 {
            2.0
        } else {
            1.0
        }
    };
    let mut steps = 0;
    if y > 10.0 {
        while y > 10.0 {
            y /= 10.0;
            steps += 1;
        }
        y = one_two_five(y);
        for _ in 0..steps {
            y *= 10.0;
        }
    } else if y < 1.0 {
        while y < 1.0 {
            y *= 10.0;
            steps += 1;
        }
        y = one_two_five(y);
        for _ in 0..steps {
            y /= 10.0;
        }
    } else {
        y = one_two_five(y);
    }
    Some(y)
}

/// The least 1, 2 or 5 times a power of ten that is at least `y`: the modern style's
/// step. Its tries for fewer ticks step `y` up by less than 2 at a time, so that no step
/// of the sequence is passed over (hp2ps's [`round_125`] rounds, and would go from 0.05
/// to 0.2). `None` for 0, a negative, NaN or an infinity.
pub fn ceil_125(y: f64) -> Option<f64> {
    if !y.is_finite() || y <= 0.0 {
        return None;
    }
    let decade = 10f64.powf(y.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        // Within a part in 10^9: 0.3 / 3 is 0.09999999999999999, and means a step of 0.1.
        .find(|&s| s >= y * (1.0 - 1e-9))
}

/// [`ceil_125`] with 2.5 among the steps: a time axis's step, so that a run of 1.3 s has
/// ticks every 0.25 s where the labels fit, rather than three at 0, 0.5 and 1.
pub fn ceil_1_2_25_5(y: f64) -> Option<f64> {
    let step = ceil_125(y)?;
    let quarter = step / 2.0;
    let is_five = (step / 10f64.powf(step.log10().floor()) - 5.0).abs() < 1e-9;
    Some(if is_five && quarter >= y * (1.0 - 1e-9) {
        quarter
    } else {
        step
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_two_five_within_a_decade() {
        assert_eq!(round_125(1.0), Some(1.0));
        assert_eq!(round_125(1.5), Some(2.0));
        assert_eq!(round_125(4.0), Some(2.0));
        assert_eq!(round_125(4.01), Some(5.0));
        assert_eq!(round_125(10.0), Some(5.0));
    }

    #[test]
    fn other_decades_scale_by_repeated_steps() {
        // The spec's worked example: 2/7 → 0.2 and 3300/7 → 500.
        assert_eq!(round_125(2.0 / 7.0), Some(0.2));
        assert_eq!(round_125(3300.0 / 7.0), Some(500.0));
        assert_eq!(round_125(11.0), Some(20.0));
        assert_eq!(round_125(0.05), Some(0.05));
        // 0.7/7 is 0.09999999999999999, just under 0.1: it becomes 0.05, so labels repeat.
        assert_eq!(round_125(0.7 / 7.0), Some(0.05));
    }

    #[test]
    fn degenerate_input_has_no_ticks() {
        assert_eq!(round_125(0.0), None);
        assert_eq!(round_125(f64::NAN), None);
        assert_eq!(round_125(f64::INFINITY), None);
    }

    #[test]
    fn ceil_125_takes_the_next_step_up() {
        for (y, want) in [
            (1.0, 1.0),
            (1.01, 2.0),
            (2.0, 2.0),
            (4.0, 5.0),
            (5.5, 10.0),
            (0.039, 0.05),
            (0.082, 0.1),
            (0.3 / 3.0, 0.1),
            (11.0, 20.0),
            (3e7, 5e7),
        ] {
            let got = ceil_125(y).unwrap();
            assert!((got - want).abs() <= want * 1e-12, "{y}: {got}");
        }
        assert_eq!(ceil_125(0.0), None);
        assert_eq!(ceil_125(f64::NAN), None);
    }

    #[test]
    fn a_time_step_may_be_two_and_a_half() {
        assert_eq!(ceil_1_2_25_5(0.22), Some(0.25));
        assert_eq!(ceil_1_2_25_5(0.26), Some(0.5));
        assert_eq!(ceil_1_2_25_5(0.15), Some(0.2));
        assert_eq!(ceil_1_2_25_5(2.1), Some(2.5));
        assert_eq!(ceil_1_2_25_5(0.0), None);
    }
}
