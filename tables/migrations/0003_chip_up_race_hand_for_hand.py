# ChipUpRace and HandForHand move from scoring down to tables (the layers of issue #7):
# the state changes, the database keeps their tables (scoring_chipuprace, scoring_handforhand)
# and every row. The dependency on scoring's 0003 is history: those tables were created there,
# so they exist before this state takes them over.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0002_move_dealt_in'),
        ('tournaments', '0007_season_moves_down'),
        ('scoring', '0003_chip_up_totals_hand_for_hand'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ChipUpRace',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('level_index', models.PositiveIntegerField()),
                        ('chip_value', models.PositiveIntegerField(verbose_name='chip raced off')),
                        ('new_chip_value', models.PositiveIntegerField(verbose_name='new chip')),
                        ('lines', models.JSONField(default=list)),
                        ('pool', models.PositiveIntegerField(default=0, verbose_name='pool')),
                        ('race_chips', models.PositiveIntegerField(default=0, verbose_name='chips raced for')),
                        ('lost', models.PositiveIntegerField(default=0, verbose_name='value lost')),
                        ('rounded_up', models.PositiveIntegerField(default=0, verbose_name='value rounded up')),
                        ('created', models.PositiveIntegerField(default=0, verbose_name='chips created')),
                        ('exchanged', models.PositiveIntegerField(default=0, verbose_name='chips exchanged')),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chip_up_races', to='tournaments.event')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chip_up_races', to='tables.table')),
                    ],
                    options={
                        'verbose_name': 'chip-up race',
                        'verbose_name_plural': 'chip-up races',
                        'db_table': 'scoring_chipuprace',
                        'ordering': ['event', 'level_index', 'table__number'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'level_index'), name='chip_up_race_once_per_table_level')],
                    },
                ),
                migrations.CreateModel(
                    name='HandForHand',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField(verbose_name='hand')),
                        ('done_tables', models.JSONField(blank=True, default=list)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('completed_at', models.DateTimeField(blank=True, null=True)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hands_for_hand', to='tournaments.event')),
                    ],
                    options={
                        'verbose_name': 'hand-for-hand hand',
                        'verbose_name_plural': 'hand-for-hand hands',
                        'db_table': 'scoring_handforhand',
                        'ordering': ['event', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('event', 'number'), name='hand_for_hand_unique_number'), models.UniqueConstraint(condition=models.Q(('completed_at__isnull', True)), fields=('event',), name='hand_for_hand_one_open_hand')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
