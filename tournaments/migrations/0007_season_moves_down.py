# The Season model moves from scoring down to tournaments (the layers of issue #7): the
# state changes, the database keeps its table (scoring_season) and every row.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_purchase_void'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                        ('starts_on', models.DateField(verbose_name='starts on')),
                        ('ends_on', models.DateField(verbose_name='ends on')),
                        ('formula', models.CharField(default='linear', max_length=40, verbose_name='points formula')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'db_table': 'scoring_season',
                        'ordering': ['-starts_on', 'name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_ends_after_start')],
                    },
                ),
                migrations.AlterField(
                    model_name='event',
                    name='season',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='events', to='tournaments.season', verbose_name='season'),
                ),
            ],
            database_operations=[],
        ),
    ]
