/**
 * Faultline in a service's own tests: {@link io.faultline.junit.FaultlineTest} (or
 * {@code @ExtendWith(FaultlineExtension.class)}) collects the findings raised while each test runs,
 * by jooq-guard as a library or by the agent when the test JVM runs with it, and fails the test on
 * the chosen ones ({@link io.faultline.junit.FailOn}) and on per-transaction budgets ({@link
 * io.faultline.junit.MaxSavepoints}, {@link io.faultline.junit.MaxNesting}, {@link
 * io.faultline.junit.MaxStatements}). See {@code docs/testing-your-service.md}.
 */
package io.faultline.junit;
