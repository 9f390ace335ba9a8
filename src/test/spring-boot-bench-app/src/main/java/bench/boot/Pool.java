package bench.boot;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The HikariCP pool, built from {@code bench.datasource.*}. Built from a {@link HikariConfig} so
 * the pool starts with the service, as the library rows' pool does: Boot's own {@code DataSource}
 * starts its pool on the first connection asked for, which a service with no database never asks.
 */
@Configuration(proxyBeanMethods = false)
class Pool {

  @Bean
  @ConfigurationProperties("bench.datasource")
  HikariConfig hikariConfig() {
    return new HikariConfig();
  }

  @Bean
  HikariDataSource dataSource(HikariConfig config) {
    return new HikariDataSource(config);
  }
}
