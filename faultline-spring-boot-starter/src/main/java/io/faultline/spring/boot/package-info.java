/**
 * Faultline's Spring Boot auto-configuration. Adding {@code faultline-spring-boot-starter} is the
 * whole setup: the {@code TransactionProvider} Boot's jOOQ auto-configuration makes is guarded by
 * jooq-guard, its meters go to the application's {@code MeterRegistry}, and {@code faultline.*}
 * properties (the keys of {@code docs/configuration.md}) configure it.
 *
 * <p>API: the auto-configuration classes' names (for {@code spring.autoconfigure.exclude}) and the
 * properties. Everything else here is package-private.
 */
package io.faultline.spring.boot;
