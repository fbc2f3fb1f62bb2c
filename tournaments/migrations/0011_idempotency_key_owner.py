"""One idempotency mechanism (1/2): an entry's key is kept per user or per table's link in IdempotencyKey."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0010_player_history"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotencykey",
            name="link",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="+", to="tournaments.privatelink"),
        ),
        migrations.AlterField(
            model_name="idempotencykey",
            name="user",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name="idempotencykey",
            constraint=models.UniqueConstraint(fields=("link", "key"), name="idempotency_link_key_unique"),
        ),
        migrations.AddConstraint(
            model_name="idempotencykey",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("link__isnull", True), ("user__isnull", False)),
                                   models.Q(("link__isnull", False), ("user__isnull", True)), _connector="OR"),
                name="idempotency_key_one_owner"),
        ),
    ]
