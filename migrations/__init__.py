"""The numbered SQL migrations (`NNNN_name.sql`, or one file per dialect), installed as the package
`bot.migrations` so a wheel carries them; bot/storage/migrations.py applies them."""
