# Reference values for cvinference's pre-whitened long-run variance and the Diebold-Mariano test's Bartlett
# fallback (issue 58), from R's sandwich and forecast packages as Debian ships them
# (apt-get install r-cran-sandwich r-cran-forecast). Writes tests/data/hac_oracle.json:
#     Rscript tests/data/hac_oracle.R tests/data/hac_oracle.json
# tests/inference/test_hac.py reads the JSON, and reruns this script where Rscript and sandwich are installed.
#
# Pre-whitening (Andrews & Monahan 1992): sandwich's kernHAC(lm(x ~ 1), prewhite = 1, ar.method = "yule-walker")
# fits an AR(1) to the centred series (ar.yw, demean = FALSE: rho = sum c_t c_(t-1) / sum c_t^2, the coefficient
# cvinference uses; sandwich's default, least squares, divides by sum c_(t-1)^2), drops the first observation (no predecessor), takes the kernel
# sum of the residuals as they are (not centred again), divides by n and recolours by 1 / (1 - rho)^2. The
# bandwidth is passed explicitly: Andrews' (1991) AR(1) plug-in lag as cvinference computes it
# (S = 1.1447 (alpha(1) n)^(1/3) on the residuals, lag = ceil(S) - 1), as bw = lag + 1, for which sandwich's
# Bartlett weights 1 - j / bw are cvinference's 1 - j / (lag + 1).
# "lrv_drop": n times sandwich's variance of the mean (what cvinference's first_observation="drop" computes).
# "lrv_prais_winsten": the same with the first residual sqrt(1 - rho^2) c_0 (Prais & Winsten 1954) kept, its
# kernel sum by sandwich's meatHAC on the n residuals (no prewhitening, the same weights), recoloured by sandwich's
# D = 1 / (1 - rho) (cvinference's default).
suppressPackageStartupMessages({library(sandwich); library(forecast); library(jsonlite)})

args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "tests/data/hac_oracle.json"

andrews_lag <- function(e) {
  r <- e - mean(e)
  n <- length(r)
  rho <- sum(r[-1] * r[-n]) / sum(r^2)
  rho <- min(max(rho, -0.97), 0.97)
  alpha <- 4 * rho^2 / ((1 - rho)^2 * (1 + rho)^2)
  min(max(ceiling(1.1447 * (alpha * n)^(1 / 3)) - 1, 0), n - 1)
}

estfun.residuals_as_they_are <- function(x, ...) x$u
.S3method("estfun", "residuals_as_they_are", estfun.residuals_as_they_are)

prewhitened <- function(x) {
  n <- length(x)
  fm <- lm(x ~ 1)
  fit <- ar(matrix(x - mean(x)), order.max = 1, demean = FALSE, aic = FALSE, method = "yule-walker")
  rho <- sum(fit$ar)
  e <- as.vector(na.omit(fit$resid))
  lag_drop <- andrews_lag(e)
  lrv_drop <- n * kernHAC(fm, kernel = "Bartlett", bw = lag_drop + 1, prewhite = 1, adjust = FALSE,
                          ar.method = "yule-walker")[1, 1]
  lrvar_drop <- n * lrvar(x, type = "Andrews", prewhite = TRUE, adjust = FALSE, kernel = "Bartlett",
                          bw = lag_drop + 1, ar.method = "yule-walker")
  stopifnot(isTRUE(all.equal(lrv_drop, lrvar_drop)))
  pw <- c(sqrt(1 - rho^2) * (x[1] - mean(x)), e)
  lag_pw <- andrews_lag(pw)
  weights <- kweights(0:lag_pw / (lag_pw + 1), kernel = "Bartlett")
  meat <- meatHAC(structure(list(u = matrix(pw)), class = "residuals_as_they_are"), prewhite = FALSE,
                  weights = weights, adjust = FALSE)[1, 1]
  list(values = x, n = n, rho = rho, lag_drop = lag_drop, lrv_drop = lrv_drop, lag_prais_winsten = lag_pw,
       lrv_prais_winsten = meat / (1 - rho)^2)
}

set.seed(58)
ordinary <- rchisq(120, df = 1)
u <- as.vector(arima.sim(list(ar = 0.6), n = 200))
differential <- 0.2 + as.vector(arima.sim(list(ar = 0.5), n = 150))
series <- list(
  one_large_loss_first = c(150, ordinary),
  one_large_loss_middle = c(ordinary[1:60], 150, ordinary[61:120]),
  one_large_loss_last = c(ordinary, 150),
  ar1_squared_errors = u^2,
  ar1_differential = differential)

# Diebold-Mariano at h = 2 where the uniform window's variance is negative (a differential that alternates in
# sign about 0.05): forecast::dm.test(varestimator = "bartlett") keeps Harvey, Leybourne & Newbold's factor.
e_a <- rnorm(60) + 4
d <- 0.05 + (-1)^(1:60) + 0.5 * rnorm(60)
e_b <- sqrt(e_a^2 + d)
dm <- function(alternative) dm.test(e_b, e_a, alternative = alternative, h = 2, power = 2, varestimator = "bartlett")
gamma <- acf(e_b^2 - e_a^2, lag.max = 1, type = "covariance", plot = FALSE)$acf[, , 1]

result <- list(
  made_by = "Rscript tests/data/hac_oracle.R tests/data/hac_oracle.json",
  R = R.version.string, sandwich = as.character(packageVersion("sandwich")),
  forecast = as.character(packageVersion("forecast")),
  prewhitened = lapply(series, prewhitened),
  dm_bartlett = list(errors_a = e_a, errors_b = e_b, h = 2, uniform_variance = gamma[1] + 2 * gamma[2],
                     statistic = unname(dm("two.sided")$statistic), pvalue_two_sided = dm("two.sided")$p.value,
                     pvalue_greater = dm("greater")$p.value))
writeLines(toJSON(result, auto_unbox = TRUE, digits = NA, pretty = TRUE), out)
