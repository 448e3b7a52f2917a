"""The load test of the production stack (``benchmarks/load_test.py``): settings, seeding, the locust
users and the checks run afterwards."""
