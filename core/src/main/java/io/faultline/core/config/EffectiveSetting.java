package io.faultline.core.config;

/**
 * One line of the effective configuration, for a status page: what a key is set to and where that
 * came from.
 *
 * @param key the key name
 * @param value the value in use, written the way a user would type it
 * @param source where it came from: {@code default}, {@code environment variable FAULTLINE_...},
 *     {@code system property faultline...}, {@code agent argument}, {@code config file ...}, or
 *     {@code default (rejected: ...)} when the given value did not parse
 * @param feature the feature the key belongs to
 */
public record EffectiveSetting(String key, String value, String source, String feature) {}
